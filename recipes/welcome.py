"""Welcome to Tensor Lab

A recipe is a plain Python script: every line below is a step you can select,
inspect and change. Pick a step on the left to see its tensor: its shape,
dtype, strides and every value. Add new tensors with the builder, then save
the recipe and run it with `python`, or open it again here.

The gallery (File > Gallery, Ctrl+G) holds the lessons: tensors, shapes, indexing,
math, autograd, nn and training, each a recipe like this one.

欢迎使用 Tensor Lab

配方就是一个普通的 Python 脚本：下面的每一行都是一个步骤，你可以选中、查看和修改
它。在左边选中一个步骤，就能看到它的张量：形状、dtype、步长（stride）和每一个值。
用构建器添加新的张量，然后保存配方，用 `python` 运行它，或者在这里重新打开。

课程都在课程库里（菜单 文件 > 课程库，或按 Ctrl+G）：张量、形状、索引、数学运算、
autograd、nn 和训练，每一课都是一个像这样的配方。

Category: start
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
