"""Start-up on a desktop without the libraries Qt's X11 plugin needs: say what to install."""

from __future__ import annotations

import os
import subprocess
import sys

from tsume_studio.gui import app

LDD = """\
\tlibQt6Gui.so.6 => /x/libQt6Gui.so.6 (0x00007f)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-sync.so.1 => /lib/libxcb-sync.so.1 (0x00007f)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-cursor.so.0 => not found
"""


def test_missing_libraries_name_their_debian_packages() -> None:
    message = app.platform_problem({"DISPLAY": ":0"}, LDD)
    assert message is not None
    assert "missing libxcb-cursor.so.0, libxcb-icccm.so.4" in message
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4\n" in message


def test_package_names_of_other_libraries() -> None:
    assert app._debian_package("libxcb-sync.so.1") == "libxcb-sync1"
    assert app._debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert app._debian_package("libfoo2.so.3") == "libfoo2-3"


def test_no_check_where_qt_does_not_use_xcb() -> None:
    assert app.platform_problem({"QT_QPA_PLATFORM": "offscreen"}, LDD) is None
    assert app.platform_problem({"WAYLAND_DISPLAY": "wayland-0"}, LDD) is None
    assert app.platform_problem({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, LDD) is not None
    assert app.platform_problem({"DISPLAY": ":0"}, "\tlibxcb-cursor.so.0 => /lib/x.so (0x1)\n") is None


def test_app_says_what_to_install_instead_of_aborting() -> None:
    # The system here may or may not have every library: pretend one is missing.
    script = ("import sys; from tsume_studio.gui import app\n"
              "app.missing_xcb_libraries = lambda ldd_output=None: ['libxcb-cursor.so.0']\n"
              "sys.exit(app.main([]))\n")
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":99"   # no such display either: Qt would abort
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          timeout=60, check=False)
    assert proc.returncode == 1
    assert "sudo apt-get install libxcb-cursor0" in proc.stderr
    assert "could not load the Qt platform plugin" not in proc.stderr
