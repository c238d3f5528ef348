"""Broadcasting: how shapes that differ combine

When two tensors of different shapes meet in an elementwise operation, torch lines
their shapes up from the right. Two sizes fit when they are equal or when one of them
is 1 (or missing on the left): the size-1 dimension is stretched, without copying, to
match the other. The result takes the larger size in every dimension.

(3, 1) + (4,): the 4 is aligned with the 1, and a missing dimension counts as 1, so
both stretch to (3, 4), an addition table. (2, 3) * (3,) scales every column by its
own factor. x - x.mean(dim=0) subtracts each column's mean from that column.

(3,) + (4,) fails: 3 and 4 are different and neither is 1. Make one a column with
unsqueeze(1) to get a (3, 4) table instead.

广播：形状不同的张量如何组合

当两个形状不同的张量进行逐元素运算时，torch 从右边开始对齐它们的形状。两个尺寸
相等，或者其中一个是 1（或在左边缺失）时，它们是相容的：大小为 1 的维度会被拉伸
（不复制数据）以匹配另一个。结果在每个维度上取较大的尺寸。

(3, 1) + (4,)：4 与 1 对齐，缺失的维度算作 1，所以两者都拉伸成 (3, 4)，得到一张
加法表。(2, 3) * (3,) 把每一列乘以各自的因子。x - x.mean(dim=0) 从每一列中减去
该列的均值。

(3,) + (4,) 会失败：3 和 4 不相等，而且都不是 1。用 unsqueeze(1) 把其中一个变成
列，就能得到一张 (3, 4) 的表。

Category: math
"""
import torch

column = torch.tensor([[0], [10], [20]])
row = torch.tensor([1, 2, 3, 4])
table = column + row
print(column.shape, row.shape, table.shape)
print(table)
x = torch.arange(6.0).view(2, 3)
factors = torch.tensor([1.0, 10.0, 100.0])
scaled = x * factors
print(scaled)
centred = x - x.mean(dim=0)
print(centred)
