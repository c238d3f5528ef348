"""Who the lab is to the operating system: the names its settings and data folders use."""

#: The organisation and application names (``QSettings`` and the data folder use both).
ORGANIZATION = "TensorLab"
APPLICATION = "Tensor Lab"
