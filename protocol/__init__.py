"""What the window and the kernel share: the contract between the two processes.

The framing (``wire``), the one codec of JSON and binary buffers (``codec``), the typed
messages and their version (``messages``), the loop report's format (``loop_report``),
the sizes both sides agree on (``limits``), a copy of a value as it crosses
(``copies``), and the small pure pieces both sides must read alike: a recipe's
statements (``source``), texts marked for translation (``i18n``), the answers' records
(``provenance_data``, ``autograd_nodes``, ``autograd_data``, ``storage``, ``timing``,
``devices``, ``tensor_summary``, ``tensor_text``, ``json_values``), the memory budget's
terms (``budget``) and ending a process tree (``reaper``).

It imports neither ``app``, ``widgets``, ``kernel`` nor torch (import-linter checks it).
"""
