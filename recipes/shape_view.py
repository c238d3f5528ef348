"""view and -1: a new shape for the same numbers

x.view(3, 4) reads the 12 numbers of x in row-major order (the last index changes
fastest) and lays them out as 3 rows of 4. Nothing is copied: the result shares
memory with x, and the Memory tab shows both pointing at the same storage.

One size may be -1: view works it out from the number of elements. With 12 elements,
view(2, -1) must be 2 x 6 and view(-1, 2, 3) must be 2 x 2 x 3; view(-1) flattens.
Only one -1 is allowed, and the sizes must multiply to the number of elements.

Try it: change view(2, -1) into view(5, -1). 12 is not a multiple of 5, so torch
refuses, and the step shows the error and its explanation.

view 与 -1：同样的数，新的形状

x.view(3, 4) 按行优先顺序（最后一个下标变化最快）读出 x 的 12 个数，把它们排成
3 行 4 列。这里没有复制任何数据：结果和 x 共享内存，在“内存”标签页里可以看到
两者指向同一块存储。

其中一个尺寸可以写成 -1，由 view 根据元素个数自动算出。12 个元素时，view(2, -1)
一定是 2 x 6，view(-1, 2, 3) 一定是 2 x 2 x 3；view(-1) 把张量展平。-1 只能出现
一次，而且各个尺寸的乘积必须等于元素个数。

动手试试：把 view(2, -1) 改成 view(5, -1)。12 不是 5 的倍数，torch 会拒绝，这一步
会显示错误和对错误的解释。

Category: shapes
"""
import torch

x = torch.arange(12)
grid = x.view(3, 4)

# -1: worked out from the 12 elements.
wide = x.view(2, -1)
cube = x.view(-1, 2, 3)
flat = grid.view(-1)
print(grid)
print(wide.shape)
print(cube.shape)
print(cube)
print(flat)
