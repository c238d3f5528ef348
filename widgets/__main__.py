"""``python -m widgets`` is the same as ``tensor-lab``."""

from widgets.launch import main

if __name__ == "__main__":  # a spawned kernel imports the parent's main module too
    raise SystemExit(main())
