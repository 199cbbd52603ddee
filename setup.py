"""The optional compiled parts: the C++ kernel and df-pn's hot modules (everything else is in pyproject.toml).

``pip install .`` compiles the C++ kernel (``core/kernel/c++``, bound with
pybind11) into ``tsume_studio.core.kernel._kernel`` when a C++ compiler is at
hand; without one, or when compiling fails, it says so in one line and the
package installs without it (``tsume_studio.core.kernel.AVAILABLE`` is then
false and the pure-Python engine runs).

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
KERNEL = "tsume_studio.core.kernel._kernel"
KERNEL_SRC = Path("core") / "kernel" / "c++"  # not an identifier: no package of its own
# mypyc names a module after its path, so it reads a copy laid out under the import names.
STAGE = Path("build") / "mypyc-src"


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure Python modules when compiling fails."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False) or self.inplace:
            # mypyc's modules next to the sources would shadow them; the kernel shadows nothing.
            self.extensions = [ext for ext in self.extensions if ext.name == KERNEL]
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no usable compiler at all
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            print(f"tsume-studio: no compiled modules ({exc}); the pure-Python engine will run", file=sys.stderr)

    def build_extensions(self) -> None:
        kernel = [ext for ext in self.extensions if ext.name == KERNEL]
        mypyc = [ext for ext in self.extensions if ext.name != KERNEL]
        for ext in kernel:
            try:
                self.build_extension(ext)
            except Exception as exc:  # a failed compile or link: install without the kernel
                self._discard([ext], f"the C++ kernel did not compile ({exc}); the pure-Python engine will run")
        try:
            for ext in mypyc:
                self.build_extension(ext)
        except Exception as exc:  # all or nothing
            self._discard(mypyc, f"compiling with mypyc failed ({exc}); installing the pure Python modules")

    def _discard(self, extensions: list[Any], message: str) -> None:
        for ext in extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        print(f"tsume-studio: {message}", file=sys.stderr)


def _forget_compiled() -> list[Any]:
    """No extensions; compiled modules left in build/ by an earlier build would go into the wheel, so drop them."""
    for lib in (ROOT / "build").glob("lib*"):
        for path in [*lib.glob("tsume_studio_search__mypyc*"), *lib.glob("tsume_studio/core/search/*.so"),
                     *lib.glob("tsume_studio/core/search/*.pyd")]:
            path.unlink()
    return []


def _kernel_modules() -> list[Any]:
    """The C++ kernel's extension, or none where no C++ compiler or pybind11 is at hand."""
    if os.environ.get("TSUME_PURE"):
        return []
    compiler = (os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "c++").split()
    if sys.platform != "win32" and (not compiler or shutil.which(compiler[0]) is None):
        print("tsume-studio: no C++ compiler; the pure-Python engine will run", file=sys.stderr)
        return []
    try:
        from pybind11.setup_helpers import ParallelCompile, Pybind11Extension
    except ImportError:
        print("tsume-studio: pybind11 is missing; the pure-Python engine will run", file=sys.stderr)
        return []
    # The kernel's translation units compile side by side (also mypyc's C files).
    ParallelCompile("TSUME_BUILD_JOBS", default=0).install()
    sources = sorted(str(path.relative_to(ROOT)) for path in (ROOT / KERNEL_SRC).glob("*.cpp"))
    headers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / KERNEL_SRC).glob("*.h"))
    optimise = ["/O2"] if sys.platform == "win32" else ["-O2"]
    # `depends` rebuilds on a header change and puts the headers in an sdist.
    return [Pybind11Extension(KERNEL, sources, depends=headers, include_dirs=[str(KERNEL_SRC)], cxx_std=20,
                              extra_compile_args=optimise)]


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


setup(ext_modules=_kernel_modules() + _ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
