"""``python -m widgets`` is the same as ``tensor-lab``."""

from widgets.launch import main

raise SystemExit(main())
