"""Reading dim from the brackets

Write a tensor out and count its brackets from the outside in: the outermost pair is
dimension 0, the next one dimension 1, and the innermost pair is the last dimension,
which dim=-1 always picks, whatever the number of dimensions.

An operation with dim=d works along that bracket level: it combines the entries that
differ only in index d. For a matrix, sum(dim=0) adds the rows together and leaves one
number per column; sum(dim=-1) adds along each row and leaves one number per row. The
dimension you name is the one that disappears (or becomes 1 with keepdim=True).

For the (2, 3, 4) cube below: dim=0 adds the two 3 x 4 blocks, dim=1 adds the three
rows of each block, and dim=-1 adds the four numbers inside each innermost bracket.

从方括号读出 dim

把张量写出来，从外向内数方括号：最外层的一对是第 0 维，下一层是第 1 维，最内层的
一对是最后一维。不管张量有几维，dim=-1 总是指最后一维。

带 dim=d 的运算沿着那一层方括号进行：它把只有第 d 个下标不同的元素合在一起。
对矩阵来说，sum(dim=0) 把各行加在一起，每列留下一个数；sum(dim=-1) 沿每一行
相加，每行留下一个数。你指定的那个维度会消失（用 keepdim=True 时变成 1）。

对下面形状为 (2, 3, 4) 的立方体：dim=0 把两个 3 x 4 的块相加，dim=1 把每块的
三行相加，dim=-1 把每个最内层方括号里的四个数相加。

Category: shapes
"""
import torch

m = torch.tensor([[1, 2, 3], [4, 5, 6]])

# dim=0: the outer brackets, so the two rows are added.
down = m.sum(dim=0)

# dim=-1: the inner brackets, so each row is added up.
across = m.sum(dim=-1)
kept = m.sum(dim=1, keepdim=True)
print(down)
print(across)
print(kept)
cube = torch.arange(24).view(2, 3, 4)
print(cube)
print(cube.sum(dim=0).shape)
print(cube.sum(dim=1).shape)
print(cube.sum(dim=-1))
