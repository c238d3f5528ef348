"""nonzero: where are the non-zero elements?

x.nonzero() lists the positions of the elements that are not zero (or True, for a bool
tensor): one row per element found, one column per dimension of x, in row-major
order. Its size depends on the values, not only on the shape, which makes it one of
the few ops whose output shape cannot be known in advance.

With as_tuple=True it gives one 1-D tensor of indices per dimension instead, exactly
what indexing wants: x[x.nonzero(as_tuple=True)] are the non-zero values. A
comparison such as x > 4 gives a bool mask; x[mask] picks the matching values
directly, and mask.nonzero() says where they are.

nonzero：非零元素在哪里？

x.nonzero() 列出不为零（对布尔张量来说是为 True）的元素的位置：每找到一个元素
占一行，x 的每个维度占一列，按行优先顺序排列。它的大小取决于数值，而不仅仅是
形状，所以它是少数几个无法预先知道输出形状的运算之一。

加上 as_tuple=True 时，它改为给每个维度返回一个一维下标张量，这正是索引所需要的：
x[x.nonzero(as_tuple=True)] 就是那些非零的值。像 x > 4 这样的比较得到一个布尔
掩码；x[mask] 直接取出符合条件的值，mask.nonzero() 则告诉你它们在哪里。

Category: indexing
"""
import torch

x = torch.tensor([[0, 3, 0], [5, 0, 7]])
positions = x.nonzero()
rows_and_columns = x.nonzero(as_tuple=True)
print(positions)
print(rows_and_columns)
print(x[rows_and_columns])
mask = x > 4
print(mask)
print(x[mask])
print(mask.nonzero())
