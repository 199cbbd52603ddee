"""Entry script for frozen builds (PyInstaller): ``tsume-usi``, the USI mate engine."""

if __name__ == "__main__":
    from tsume_studio.core.cli.main import usi_main

    raise SystemExit(usi_main())
