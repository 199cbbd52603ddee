"""Entry script for frozen builds (PyInstaller): start the study app."""

from tsume_studio.gui.app import main

if __name__ == "__main__":
    raise SystemExit(main())
