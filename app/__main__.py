"""``python -m app`` is the same as ``tensor-lab``."""

from app.cli import main

raise SystemExit(main())
