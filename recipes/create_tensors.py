"""Creating tensors: from data, filled with one value, and ranges

torch.tensor(data) copies Python numbers, or nested lists of them, into a new tensor
and infers the dtype: whole numbers give int64, and a single float makes the whole
tensor float32. Every row of a nested list must have the same length.

torch.zeros, torch.ones and torch.full fill a shape with one value; the dtype is
float32 unless you ask for another (full takes it from its fill value). torch.eye(n)
is the n x n identity matrix.

Three ways to make a range: torch.arange(start, end, step) counts from start up to,
but not including, end; torch.linspace(start, end, steps) spaces steps values evenly
from start to end, both included; torch.logspace(start, end, steps) spaces the
exponents evenly and gives 10 ** start up to 10 ** end.

Try it: give arange a step of 0.5, ask linspace for 4 values instead of 5, or put one
float into the integer list of whole and watch its dtype change.

创建张量：由数据创建、用一个值填充、以及数值范围

torch.tensor(data) 把 Python 数字或嵌套列表复制成一个新张量，并自动推断 dtype：
全是整数时得到 int64，只要有一个浮点数，整个张量就是 float32。嵌套列表的每一行
长度必须相同。

torch.zeros、torch.ones 和 torch.full 用同一个值填满给定形状；除非另外指定，
dtype 是 float32（full 的 dtype 取决于填充值）。torch.eye(n) 是 n x n 的单位矩阵。

创建数值范围有三种方法：torch.arange(start, end, step) 从 start 开始计数，到 end
为止但不包含 end；torch.linspace(start, end, steps) 在 start 和 end 之间均匀取
steps 个值，两端都包含；torch.logspace(start, end, steps) 让指数均匀分布，得到从
10 ** start 到 10 ** end 的值。

动手试试：把 arange 的步长改成 0.5，让 linspace 只取 4 个值而不是 5 个，或者在
whole 的整数列表里放一个浮点数，看看它的 dtype 怎样变化。

Category: creation
"""
import torch

# Whole numbers give int64; one float makes the whole tensor float32.
whole = torch.tensor([[1, 2, 3], [4, 5, 6]])
mixed = torch.tensor([1, 2.5, 3])
print(whole.dtype, mixed.dtype)
print(mixed)

# One value everywhere.
zeros = torch.zeros(2, 3)
ones = torch.ones(2, 3, dtype=torch.int64)
sevens = torch.full((2, 2), 7)
eye = torch.eye(3)
print(zeros)
print(ones)
print(sevens)
print(eye)

# Ranges: end is left out by arange, included by linspace and logspace.
counted = torch.arange(0, 10, 2)
spaced = torch.linspace(0, 1, 5)
powers = torch.logspace(0, 3, 4)
print(counted)
print(spaced)
print(powers)
