"""The optional compiled build of df-pn's hot modules (everything else is in pyproject.toml).

``pip install .`` compiles the modules that ``core/search/native.py`` lists
with mypyc, from the same typed source, when mypyc and a C compiler are at
hand; without them, when compiling fails, or with ``TSUME_PURE=1`` in the
environment, the package installs as pure Python and works the same, only
slower.  An editable install never compiles, so that edits to the sources
take effect at once.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# mypyc names a module after its path, so it reads a copy laid out under the import names.
STAGE = Path("build") / "mypyc-src"


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure Python modules when compiling fails."""

    def run(self) -> None:
        if not self.extensions:
            return
        if getattr(self, "editable_mode", False) or self.inplace:
            # Compiled modules next to the sources would shadow them.
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, a failed compile or link: all or nothing
            self._discard(exc)

    def _discard(self, exc: Exception) -> None:
        for ext in self.extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        print(f"tsume-studio: compiling with mypyc failed ({exc}); installing the pure Python modules",
              file=sys.stderr)


def _forget_compiled() -> list[Any]:
    """No extensions; compiled modules left in build/ by an earlier build would go into the wheel, so drop them."""
    for lib in (ROOT / "build").glob("lib*"):
        for path in [*lib.glob("tsume_studio_search__mypyc*"), *lib.glob("tsume_studio/core/search/*.so"),
                     *lib.glob("tsume_studio/core/search/*.pyd")]:
            path.unlink()
    return []


def _ext_modules() -> list[Any]:
    """mypyc's extensions for the hot modules, or none where they cannot be built."""
    if os.environ.get("TSUME_PURE") or "editable_wheel" in sys.argv:
        return _forget_compiled()
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not compiler or shutil.which(compiler[0]) is None:
        return _forget_compiled()
    try:
        from mypyc.build import mypycify
    except ImportError:
        return _forget_compiled()
    hot = runpy.run_path(str(ROOT / "core" / "search" / "native.py"))["HOT_MODULES"]
    stage = ROOT / STAGE
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(ROOT / "core", stage / "tsume_studio" / "core",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    config = stage / "mypy.ini"
    config.write_text(
        "[mypy]\nignore_missing_imports = True\nexplicit_package_bases = True\n"
        f"namespace_packages = True\nmypy_path = {stage}\ncache_dir = {stage / '.mypy_cache'}\n",
        encoding="utf-8")
    paths = [str(STAGE / "tsume_studio" / "core" / "search" / f"{name}.py") for name in hot]
    try:
        return list(mypycify(["--config-file", str(config), *paths], group_name="tsume_studio_search",
                             target_dir=str(STAGE / "c")))
    except (Exception, SystemExit) as exc:   # mypyc exits on a type error
        print(f"tsume-studio: mypyc could not translate the hot modules ({exc}); "
              "installing the pure Python modules", file=sys.stderr)
        return _forget_compiled()


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
