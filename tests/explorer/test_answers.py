"""Answers without HTTP: routing, the request limits, refusals in the page's words with
their status, and the byte-bounded cache of recent answers."""

import pytest

from tilelayout.core import budget
from tilelayout.core.errors import BudgetError
from tilelayout.explorer import views
from tilelayout.explorer.answers import AnswerCache, answer, page_error, status_of
from tilelayout.explorer.request import ApiError


def test_every_route_answers_as_its_view():
    for path, view in views.GET.items():
        assert answer("GET", path) == (200, view())
    body = {"layout": "S[4:2]", "index": [3]}
    assert answer("POST", "/api/explain", body) == (200, views.POST["/api/explain"](body))


def test_unknown_routes_are_404():
    status, data = answer("POST", "/api/nothing", {})
    assert status == 404 and data["status"] == 404 and "/api/nothing" in data["error"]
    assert answer("GET", "/api/layout")[0] == 404  # a POST route is not a GET route


def test_refusals_carry_status_field_and_the_pages_words():
    status, data = answer("POST", "/api/layout", {"layout": "S[4:1@lane]"})
    assert status == 400 and data["status"] == 400 and data["field"] == "layout"
    assert answer("POST", "/api/layout", [1])[0] == 400


def test_the_limits_in_force_refuse_with_413():
    tight = budget.Limits(elements=16)
    status, data = answer("POST", "/api/layout", {"layout": "S[(8,8):(8,1)]"}, limits=tight)
    assert status == 413 and data["status"] == 413
    assert answer("POST", "/api/layout", {"layout": "S[(2,8):(8,1)]"}, limits=tight)[0] == 200


def test_status_of_a_budget_refusal():
    with pytest.raises(BudgetError) as cause, budget.limits(budget.Limits(elements=4)):
        budget.check("the tile has", 8, "elements")
    exc = ApiError("too big")
    exc.__context__ = cause.value  # as when a view refuses while the budget runs out
    assert status_of(exc) == 413
    assert status_of(ApiError("x", 404)) == 404
    assert page_error(ApiError("bad shape", field="shape")) == {"error": "bad shape",
                                                               "field": "shape"}


def test_the_cache_drops_the_least_recently_used_and_refuses_big_answers():
    c = AnswerCache(100)
    c.put(("/a", b"1"), b"x" * 20)
    c.put(("/b", b"1"), b"y" * 20)
    assert c.get(("/a", b"1")) == b"x" * 20  # /a is now the most recent
    c.put(("/c", b"1"), b"z" * 20)
    c.put(("/d", b"1"), b"w" * 20)
    c.put(("/e", b"1"), b"v" * 20)  # 5 x 21 bytes > 100: the oldest (/b) goes
    assert c.get(("/b", b"1")) is None and c.get(("/a", b"1")) == b"x" * 20
    c.put(("/big", b"1"), b"q" * 30)  # over a quarter of the capacity: not kept
    assert c.get(("/big", b"1")) is None


@pytest.mark.parametrize("path", sorted(views.POST))
def test_a_non_object_body_is_a_400_on_every_post_route(path):
    status, data = answer("POST", path, "text")
    assert status == 400 and data["error"]
