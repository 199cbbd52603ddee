"""Entry script for frozen builds (PyInstaller): the ``tsume`` command line."""

import multiprocessing

if __name__ == "__main__":
    # batch --jobs starts its workers by re-running this executable.
    multiprocessing.freeze_support()
    from tsume_studio.core.cli.main import main

    raise SystemExit(main())
