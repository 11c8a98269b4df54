"""The web explorer: a small JSON API over the library plus a static page that draws.

The page computes nothing about layouts; every coordinate it shows comes from
:mod:`tilelayout.explorer.api`, which calls the same functions as the CLI.

>>> from tilelayout.explorer.api import layout_view
>>> layout_view({"layout": "S[4:1@laneid]"})["size"]
4
"""
