"""masked_fill: write a value wherever a mask is True

x.masked_fill(mask, value) returns a copy of x with value wherever the bool tensor
mask is True; elsewhere the elements of x are kept. The mask usually comes from a
comparison of x itself (x < 0), and it is broadcast against x, so a mask of shape
(1, 3) hides the same columns in every row.

The trailing underscore makes the in-place version: x.masked_fill_(mask, value)
changes x itself. The recipe uses the copying one, so scores stays as it was and can
be compared with the results.

masked_fill：在掩码为 True 的地方写入一个值

x.masked_fill(mask, value) 返回 x 的一个副本：布尔张量 mask 为 True 的地方
换成 value，其余位置保留 x 的元素。掩码通常来自对 x 本身的比较（x < 0），并且会
与 x 进行广播，所以形状为 (1, 3) 的掩码会在每一行遮住相同的列。

名字末尾加下划线就是原地版本：x.masked_fill_(mask, value) 直接修改 x。本配方
使用会复制的版本，所以 scores 保持原样，可以和结果对比。

Category: indexing
"""
import torch

scores = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -0.5]])
negative = scores < 0
cleaned = scores.masked_fill(negative, 0.0)
capped = torch.masked_fill(scores, scores > 1, 1.0)

# A (1, 3) mask, broadcast over both rows: hide column 1.
hide = torch.tensor([[False, True, False]])
hidden = scores.masked_fill(hide, -99.0)
print(negative)
print(cleaned)
print(capped)
print(hidden)
