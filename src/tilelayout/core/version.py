"""The package's version, written once: ``pyproject.toml`` reads it when building, the
package re-exports it as ``tilelayout.__version__`` and ``tilelayout --version`` prints it.

>>> import tilelayout as tl
>>> tl.__version__ == __version__
True
"""

__version__ = "0.1.0"
