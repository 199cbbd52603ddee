"""The optional compiled part, the C++ kernel (everything else is in pyproject.toml).

``pip install .`` compiles the C++ kernel (``core/kernel/c++``, bound with
pybind11) into ``tsume_studio.core.kernel._kernel`` when a C++ compiler is at
hand; without one, or when compiling fails, it says so in one line and the
package installs without it (``tsume_studio.core.kernel.AVAILABLE`` is then
false and the pure-Python engine runs).  ``TSUME_PURE=1`` in the environment
leaves the kernel out as well.
"""

from __future__ import annotations

import os
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


class OptionalBuildExt(build_ext):
    """``build_ext`` that installs without the kernel when compiling it fails."""

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no usable compiler at all
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            print(f"tsume-studio: no compiled modules ({exc}); the pure-Python engine will run", file=sys.stderr)

    def build_extensions(self) -> None:
        for ext in self.extensions:
            try:
                self.build_extension(ext)
            except Exception as exc:  # a failed compile or link: install without the kernel
                self._discard([ext], f"the C++ kernel did not compile ({exc}); the pure-Python engine will run")

    def _discard(self, extensions: list[Any], message: str) -> None:
        for ext in extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        print(f"tsume-studio: {message}", file=sys.stderr)


def _drop_stale_modules() -> None:
    """Remove compiled search modules that an older build left in build/: they would go into the wheel."""
    shutil.rmtree(ROOT / "build" / "mypyc-src", ignore_errors=True)
    for lib in (ROOT / "build").glob("lib*"):
        for path in [*lib.glob("tsume_studio_search__mypyc*"), *lib.glob("tsume_studio/core/search/*.so"),
                     *lib.glob("tsume_studio/core/search/*.pyd")]:
            path.unlink()


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
    # The kernel's translation units compile side by side.
    ParallelCompile("TSUME_BUILD_JOBS", default=0).install()
    sources = sorted(str(path.relative_to(ROOT)) for path in (ROOT / KERNEL_SRC).glob("*.cpp"))
    headers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / KERNEL_SRC).glob("*.h"))
    optimise = ["/O2"] if sys.platform == "win32" else ["-O2"]
    # `depends` rebuilds on a header change and puts the headers in an sdist.
    return [Pybind11Extension(KERNEL, sources, depends=headers, include_dirs=[str(KERNEL_SRC)], cxx_std=20,
                              extra_compile_args=optimise)]


_drop_stale_modules()
setup(ext_modules=_kernel_modules(), cmdclass={"build_ext": OptionalBuildExt})
