"""The Model tab: an ``nn.Module`` the recipe made, as a tree (``tree``) in its panel
(``panel``)."""
