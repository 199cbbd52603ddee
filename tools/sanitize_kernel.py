"""Build the C++ kernel with AddressSanitizer and UndefinedBehaviorSanitizer: ``make sanitize``.

Stages a copy of ``core/`` as ``build/sanitize/tsume_studio/core`` and compiles
the kernel into it with ``-fsanitize=address,undefined`` (every finding
aborts: ``-fno-sanitize-recover=all``).  With ``PYTHONPATH=build/sanitize``
that copy is imported before the installed package, so the kernel's tests run
against the instrumented extension; Python itself is not instrumented, so the
ASan runtime is preloaded (``LD_PRELOAD``) and leak detection is off (the
interpreter keeps memory to the end).  The table is built on the heap, as where
there is no mmap (``TSUME_TT_NO_RESERVE``): ASan guards heap arrays, not a
mapping, so a bucket written out of bounds in the table's growth is found.
Prints the extension's path.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pybind11

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "core" / "kernel" / "c++"
FLAGS = ["-std=c++20", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
         "-fno-sanitize-recover=all", "-fPIC", "-Wall", "-Wextra", "-DTSUME_TT_NO_RESERVE"]


def main() -> int:
    parser = argparse.ArgumentParser(description="Build the kernel with AddressSanitizer and UBSan.")
    parser.add_argument("--jobs", type=int, default=0, help="compiles at once (0: every source at once)")
    args = parser.parse_args()
    out = ROOT / "build" / "sanitize"
    package = out / "tsume_studio" / "core"
    shutil.rmtree(out / "tsume_studio", ignore_errors=True)
    shutil.copytree(ROOT / "core", package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "c++"))
    objects = out / "obj"
    objects.mkdir(parents=True, exist_ok=True)
    cxx = os.environ.get("CXX", "g++")
    includes = [f"-I{SOURCES}", f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}"]
    sources = sorted(SOURCES.glob("*.cpp"))
    width = args.jobs if args.jobs > 0 else len(sources)
    for start in range(0, len(sources), width):
        jobs = [subprocess.Popen([cxx, *FLAGS, *includes, "-c", str(source), "-o", str(objects / (source.stem + ".o"))])
                for source in sources[start:start + width]]
        if any([job.wait() != 0 for job in jobs]):   # a list: wait for every job of the batch
            return 1
    extension = package / "kernel" / ("_kernel" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([cxx, "-shared", "-fsanitize=address,undefined", *map(str, sorted(objects.glob("*.o"))),
                    "-o", str(extension)], check=True)
    print(extension)
    return 0


if __name__ == "__main__":
    sys.exit(main())
