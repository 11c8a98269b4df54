"""Library messages rewritten for the page (no Python prompt there)."""

from tilelayout.explorer.messages import for_page


def test_python_hints_become_what_the_page_offers():
    msg = ("unknown axis 'lane' (declare your own axes: tilelayout.parse(text, axes=['lane']) "
           "or with tilelayout.axes('lane'))")
    assert for_page(msg) == ("unknown axis 'lane' (the explorer knows the hardware axes and "
                             "the device axes of the mesh presets)")
    big = "the layout has 2**40 elements; use the library (tilelayout.map_all) directly"
    assert for_page(big) == "the layout has 2**40 elements; pick a smaller shape to analyse it here"


def test_other_messages_pass_unchanged():
    for msg in ("column 3: expected ']'", "", "tilelayout.parse is fine to mention"):
        assert for_page(msg) == msg
