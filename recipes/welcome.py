"""Welcome to Tensor Lab

A recipe is a plain Python script: every line below is a step you can select,
inspect and change. Pick a step on the left to see its tensor: its shape,
dtype, strides and every value. Add new tensors with the builder, then save
the recipe and run it with `python`, or open it again here.
"""
import torch

torch.manual_seed(0)

# Twelve numbers, 0 to 11: the tensor most lessons start from.
x = torch.arange(12)
# Twelve evenly spaced values from 0 to 1, both ends included.
grid = torch.linspace(0, 1, 12)
# The identity matrix.
I = torch.eye(4)
# A literal tensor, written as nested lists.
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
# Random numbers from the standard normal distribution; the seed above fixes them.
noise = torch.randn(4, 5)
# A 3-D tensor: pick which two dimensions the viewer shows.
cube = torch.rand(2, 3, 4)
print(x)
print(m)
print(noise.shape)
