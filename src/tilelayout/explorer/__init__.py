"""The web explorer: a small JSON API over the library plus a static page that draws.

The page computes nothing about layouts; every coordinate it shows comes from
:mod:`tilelayout.explorer.views` (one module per endpoint, each reading its request
through :mod:`tilelayout.explorer.request`), which call the same functions as the CLI;
:mod:`tilelayout.explorer.server` is only the HTTP around them.

>>> from tilelayout.explorer.views.layout import layout_view
>>> layout_view({"layout": "S[4:1@laneid]"})["size"]
4
"""
