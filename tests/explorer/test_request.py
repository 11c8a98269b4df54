"""The explorer's one request parser: each field read, its refusal naming the field (and
the column of a parse error), and request-scoped axes that leave no trace."""

import pytest

import tilelayout as tl
from tilelayout.explorer import request
from tilelayout.explorer.request import MAX_TEXT, ApiError


def test_shapes_and_indices_from_json_or_text():
    assert request.int_list("8x16", "shape") == (8, 16) == request.int_list("(8, 16)", "s")
    assert request.int_list([7, 15], "index") == (7, 15) and request.int_list(4, "s") == (4,)
    assert request.int_list("", "shape") is None and request.int_list([], "shape") is None
    assert request.index({"index": "7,15"}, (8, 16)) == (7, 15)


@pytest.mark.parametrize("value", ["8,x", [1.5], [True], list(range(9)), [1 << 41]])
def test_bad_integer_lists_name_the_field(value):
    with pytest.raises(ApiError) as e:
        request.int_list(value, "shape")
    assert e.value.field == "shape" and e.value.status == 400


@pytest.mark.parametrize("idx", [[8, 0], [0], None])
def test_an_index_must_fit_the_shape(idx):
    with pytest.raises(ApiError) as e:
        request.index({"index": idx}, (8, 16))
    assert e.value.field == "index"


def test_text_fields():
    assert request.text({"k": "v"}, "k") == "v" and request.text({"k": ""}, "k") is None
    with pytest.raises(ApiError) as e:
        request.text({}, "k", required=True)
    assert e.value.field == "k"
    with pytest.raises(ApiError) as e:
        request.text({"k": 3}, "k")
    assert "must be a string" in e.value.message
    with pytest.raises(ApiError) as e:
        request.text({"k": "x" * (MAX_TEXT + 1)}, "k")
    assert e.value.status == 413


def test_a_mesh_as_text_or_object_and_its_axes():
    assert request.mesh({"mesh": "dp=2,tp=4"}) == {"dp": 2, "tp": 4}
    assert request.mesh({"mesh": {"dp": 2}}) == {"dp": 2} and request.mesh({}) is None
    names = [a.name for a in request.request_axes({"mesh": "data=2"}).declared]
    assert names[-1] == "data" and set(request.explorer_device_axes()) <= set(names)
    for bad in ("dp=0", 7, "x" * 201):
        with pytest.raises(ApiError) as e:
            request.mesh({"mesh": bad})
        assert e.value.field == "mesh"


def test_request_axes_leave_no_trace():
    L = request.layout_field({"src": "S[(2,4):(1@gamma,1)]", "mesh": "gamma=2"}, "src")
    assert "gamma" in L.axes
    with pytest.raises(ApiError):  # the next request without the mesh does not know it
        request.layout_field({"src": "S[(2,4):(1@gamma,1)]"}, "src")
    with pytest.raises(tl.LayoutError):
        tl.parse("S[(2,4):(1@gamma,1)]")


def test_a_parse_error_names_the_field_and_column():
    with pytest.raises(ApiError) as e:
        request.layout_field({"src": "S[4:1@lane]"}, "src")
    assert e.value.field == "src" and "unknown axis 'lane'" in e.value.message
    with pytest.raises(ApiError) as e:
        request.layout_field({"src": "S[(4,4):(1,]"}, "src")
    assert e.value.column is not None and e.value.column > 0


def test_resolve_composes_the_swizzle_mode():
    L, shape, dtype, mode = request.resolve({"layout": "S[(8,64):(64,1)]", "dtype": "float16",
                                             "swizzle": "128B"})
    assert isinstance(L, tl.ComposeLayout) and shape == (8, 64) and mode == "128B"
    assert L.swizzle == tl.Swizzle.for_dtype("float16", "128B")


@pytest.mark.parametrize("req,field", [
    ({"layout": "S[(8,64):(64,1)]", "swizzle": "128B"}, "swizzle"),        # no dtype
    ({"layout": "S[32:1@laneid]", "dtype": "float16", "swizzle": "128B"}, "swizzle"),
    ({"layout": "S[8:1]", "swizzle": "77B", "dtype": "float16"}, "swizzle"),
    ({"layout": "S[8:1]", "dtype": "float13"}, "dtype"),
    ({"layout": "S[8:1]", "shape": "3"}, "shape"),
    ({"layout": 5}, "layout"),
])
def test_resolve_refusals_name_the_field(req, field):
    with pytest.raises(ApiError) as e:
        request.resolve(req)
    assert e.value.field == field


def test_only_objects_are_request_bodies_and_errors_serialise():
    with pytest.raises(ApiError):
        request.json_object([1])
    assert ApiError("bad", field="f", column=3).to_dict() == {"error": "bad", "field": "f",
                                                              "column": 3}
    assert request.order({"order": ["dp", "tp"]}) == ["dp", "tp"]
    with pytest.raises(ApiError):
        request.order({"order": "dp"})
