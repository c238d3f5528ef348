"""The sizes both processes agree on: what the kernel sends at most, what the window
expects at most. Plain numbers, so either side imports them without the other's code."""

#: Most characters of output waiting per stream between two sends (the kernel's
#: ``capture``; the window's ``events`` keeps as many of what it has not shown).
LIMIT = 256 * 1024
#: The most cells a tensor may have to be copied into the window with its step's report.
MIRROR_CELLS = 1 << 16
#: The most cells a tensor may have to be copied when Op explained asks for it.
ASKED_CELLS = 1 << 22
#: The most cells of a plane one answer carries (8 MiB of float32).
MAX_PLANE_CELLS = 1 << 21
#: Percentiles of a layer's weights and of their gradients the training watch sends with
#: each sampled step (TensorBoard's "distributions": the normal distribution's 0, ±0.5,
#: ±1, ±1.5 sigma and its ends, rounded), and the most values of each it reads for them
#: (every k-th of a larger one's flat values; sorting 4096 a tensor cost a small MLP's
#: sampled step 0.9 ms, 1024 a quarter of that).
LAYER_PERCENTILES = (0, 7, 16, 31, 50, 69, 84, 93, 100)
QUANTILE_VALUES = 1 << 10
