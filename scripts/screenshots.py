"""Take the README's screenshots from the real application.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--lang ja]

Runs the app offscreen (or on the display given by ``--platform``, e.g.
under ``xvfb-run``), with settings kept in a temporary folder, and writes:

* ``editor.png``: a bundled sample problem in the editor;
* ``search.png``: the live pn/dn tree of a long search (Microcosmos) in progress;
* ``proof.png``: a solved problem stepped to the middle of its main line, the proof tree open;
* ``futile.png``: the futile interpositions (無駄合) of a solution, one of them on the board;
* ``study.png``: study mode, the answer kept in the record's tree beside a line tried on the board;
* ``check.png``: the check of a record's main line (作意), its discrepancies listed, one on the board;
* ``engine.png``: a problem solved on an external USI engine (this package's ``tsume-usi``);
* ``engine-settings.png``: Settings ▸ Engines adding that engine, its handshake passed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MICROCOSMOS = ROOT / "tests" / "data" / "microcosmos.tsv"
FUTILE_SFEN = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
# A mate in three (tanuki-5-5) with a main line that counts a futile drop: 早詰, 余詰, 成不成非限定, 駒余り.
CHECK_SFEN = "6R2/7S1/8S/8k/6B2/9/9/9/9 b rb4g2s4n4l18p 1"
CHECK_LINE = ("1c2d+", "1d1e", "3a1a+", "P*1d", "1a1d")


def microcosmos_sfen() -> str:
    for line in MICROCOSMOS.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if fields[0] == "microcosmos":
            return fields[1]
    raise SystemExit(f"no 'microcosmos' row in {MICROCOSMOS}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="folder for the PNG files")
    parser.add_argument("--lang", default="ja", choices=("ja", "en"))
    parser.add_argument("--platform", default=None, help="Qt platform (default: offscreen unless DISPLAY is set)")
    parser.add_argument("--search-seconds", type=float, default=4.0, help="how long the search runs before its shot")
    args = parser.parse_args(argv)
    if args.platform:
        os.environ["QT_QPA_PLATFORM"] = args.platform
    elif not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([sys.argv[0]])  # noqa: F841 - must exist while the window lives
    settings_dir = tempfile.mkdtemp(prefix="tsume-shots-")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)

    from tsume_studio.core.shogi.moves import check_moves, parse_move
    from tsume_studio.core.shogi.position import Position
    from tsume_studio.core.search.contract import Limits
    from tsume_studio.gui.app import build_parser, create_window
    from tsume_studio.gui.resources import resource_path
    from tsume_studio.gui.settings import save_limits

    save_limits(Limits(seconds=120.0, memory_mb=256))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    window = create_window(build_parser().parse_args(["--sample", "05-mate9.kifu", "--lang", args.lang]))
    window.resize(1360, 860)
    window.show()

    def settle(ms: int = 300) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def shoot(name: str) -> None:
        settle()
        path = out / name
        if not window.grab().save(str(path)):
            raise SystemExit(f"could not write {path}")
        print(path)

    def solve_and_wait(limit_ms: int = 120_000) -> object:
        loop = QEventLoop()
        got: list[object] = []
        window.searchFinished.connect(lambda r: (got.append(r), loop.quit()))
        QTimer.singleShot(limit_ms, loop.quit)
        window.solve()
        loop.exec()
        window.searchFinished.disconnect()
        return got[0] if got else None

    # 1. The editor with a sample problem.
    window.docks["result"].raise_()
    shoot("editor.png")

    # 2. A long search in progress: the live tree follows the current path.
    window.editor.set_position(Position.from_sfen(microcosmos_sfen()))
    window.solve()
    settle(int(args.search_seconds * 1000))
    model = window.search_panel.model
    path = model.current_path()
    window.search_panel.view.scrollTo(model.index_of_path(path[:min(len(path), 10)]))
    window.search_panel.view.horizontalScrollBar().setValue(0)
    shoot("search.png")
    loop = QEventLoop()
    window.searchFinished.connect(lambda _r: loop.quit())
    window.stop()
    loop.exec()
    window.searchFinished.disconnect()

    # 3. A solved problem, stepped to the middle of the main line.
    window.open_file(str(resource_path("samples", "05-mate9.kifu")))
    result = solve_and_wait()
    if result is None:
        raise SystemExit("the sample problem was not solved")
    window.result_panel.set_ply(5)
    window.docks["proof"].raise_()
    shoot("proof.png")

    # 4. Futile interpositions of a mate in one, one of them shown on the board.
    window.show_problem()
    window.editor.set_position(Position.from_sfen(FUTILE_SFEN))
    if solve_and_wait() is None:
        raise SystemExit("the futile-interposition example was not solved")
    window.docks["futile"].raise_()
    window.futile_panel.select(0)
    shoot("futile.png")

    # 5. Study mode: the answer in the record's tree, and a line of one's own tried beside it.
    window.open_file(str(resource_path("samples", "03-mate5.kifu")))
    if solve_and_wait() is None:
        raise SystemExit("the five-move sample was not solved")
    window.keep_answer()
    window.set_study_mode(True)
    study = window.study
    study.step(2)
    tree = study.tree()
    tried = [m for m in check_moves(tree.position()) if m not in {c.move for c in tree.node().children}]
    if tried:
        study.play(tried[0])
        study.step(-1)
        study.step(1)
    shoot("study.png")

    # 6. The check of a record's main line: a line that counts a futile drop, each discrepancy listed.
    window.set_study_mode(False)
    window.editor.set_position(Position.from_sfen(CHECK_SFEN))
    window.set_study_mode(True)
    for usi in CHECK_LINE:
        window.study.play(parse_move(window.study.tree().position(), usi))
    checked: list[object] = []
    window.checkFinished.connect(checked.append)
    window.check_main_line()
    while not checked:
        settle(100)
    if checked[0] is None:
        raise SystemExit("the check of the main line did not finish")
    rows = window.check_panel.count()
    window.check_panel.select(min(3, rows - 1))
    shoot("check.png")

    # 7. An external USI engine: registered (handshake shown), chosen in Solve ▸ Engine, solving.
    from tsume_studio.core.usi_client import EngineSpec
    from tsume_studio.gui.engines import EngineEditDialog
    from tsume_studio.gui.settings import save_engines

    installed = Path(sys.executable).with_name("tsume-usi")
    if installed.exists():
        # Shown under a short path, as a user's own engine folder would be.
        engine = Path(tempfile.gettempdir()) / "engines" / "tsume-usi"
        engine.parent.mkdir(exist_ok=True)
        if engine.is_symlink():
            engine.unlink()   # a link left by an earlier run may point at an install that is gone
        if not engine.exists():
            engine.symlink_to(installed)
        spec = EngineSpec("tsume-usi", str(engine), (), (("USI_Hash", "128"),))
        dialog = EngineEditDialog(spec, (), window)
        dialog.show()
        loop = QEventLoop()
        dialog.tested.connect(lambda _r: loop.quit())
        QTimer.singleShot(15_000, loop.quit)
        dialog.test_engine()
        loop.exec()
        settle()
        dialog.grab().save(str(out / "engine-settings.png"))
        print(out / "engine-settings.png")
        dialog.close()
        save_engines([spec])
        window.engine_choice.rebuild()
        window.engine_choice.choose("tsume-usi")
        window.set_study_mode(False)
        window.open_file(str(resource_path("samples", "03-mate5.kifu")))
        if solve_and_wait() is None:
            raise SystemExit("the engine did not solve the five-move sample")
        window.result_panel.set_ply(5)
        shoot("engine.png")
        window.engine_choice.choose("")
    else:
        print(f"{installed} is not installed: engine shots skipped", file=sys.stderr)

    window.ask_discard = lambda: "discard"   # type: ignore[method-assign]  # the shots' edits are not kept
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
