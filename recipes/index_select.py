"""index_select: whole rows or columns, in the order you list

torch.index_select(x, dim, index) takes whole slices of x along dim at the positions
listed in index, a 1-D int64 tensor. With dim=0 it picks rows, with dim=1 columns. The
result has x's shape except along dim, where its size is the length of index.
Positions may come in any order and may repeat, so index_select can reorder, pick a
subset or duplicate.

It is the same as indexing with a tensor, x[index] for rows, and the same as
embedding lookup: nn.Embedding picks rows of its weight by id. Compare gather, which
picks single elements, one index per output element.

index_select：按列出的顺序取整行或整列

torch.index_select(x, dim, index) 沿 dim 在 index（一个一维 int64 张量）列出的
位置上取 x 的整片。dim=0 时取行，dim=1 时取列。结果的形状和 x 相同，只有 dim 方向
的大小等于 index 的长度。位置可以是任意顺序，也可以重复，所以 index_select 可以
重新排序、选出子集或复制。

它和用张量做索引一样，取行时就是 x[index]；它也和嵌入查找一样：nn.Embedding 按
id 取出权重的行。可以和 gather 比较一下：gather 取的是单个元素，每个输出元素对应
一个下标。

Category: indexing
"""
import torch

x = torch.arange(12).view(3, 4)
picks = torch.tensor([2, 0])
rows = torch.index_select(x, 0, picks)

# Columns 1, 1 and 3: repeats are allowed.
columns = x.index_select(1, torch.tensor([1, 1, 3]))
same_rows = x[picks]
print(x)
print(rows)
print(columns)
print(torch.equal(rows, same_rows))
