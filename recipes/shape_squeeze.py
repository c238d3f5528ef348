"""squeeze and unsqueeze: removing and adding dimensions of size 1

x.squeeze() removes every dimension of size 1: a (1, 3, 1) tensor becomes (3,).
x.squeeze(dim) removes only that dimension, and only if its size is 1. If it is not,
torch does not complain: the tensor comes back unchanged. That silence hides bugs, so
check the shape after a squeeze with a dim.

x.unsqueeze(dim) inserts a new dimension of size 1 at position dim: a (3,) vector
becomes a (1, 3) row with dim=0 or a (3, 1) column with dim=1 (or -1, the last
position). The values never change, only how they are grouped, which is what
broadcasting and batch dimensions need.

squeeze 与 unsqueeze：去掉和添加大小为 1 的维度

x.squeeze() 去掉所有大小为 1 的维度：形状 (1, 3, 1) 的张量变成 (3,)。
x.squeeze(dim) 只去掉指定的那个维度，而且只在它的大小为 1 时才去掉。如果大小不是
1，torch 不会报错，张量原样返回。这种“沉默”会掩盖错误，所以带 dim 调用 squeeze
之后要检查形状。

x.unsqueeze(dim) 在位置 dim 插入一个大小为 1 的新维度：形状 (3,) 的向量在 dim=0
时变成 (1, 3) 的行，在 dim=1（或 -1，即最后一个位置）时变成 (3, 1) 的列。数值本身
从不改变，改变的只是分组方式，而广播和批维度需要的正是这个。

Category: shapes
"""
import torch

x = torch.arange(3).view(1, 3, 1)
every = x.squeeze()
first = x.squeeze(0)

# Dimension 1 has size 3: nothing is removed, and no error is raised.
unchanged = x.squeeze(1)
print(x.shape)
print(every.shape)
print(first.shape)
print(unchanged.shape)
v = torch.tensor([10, 20, 30])
row = v.unsqueeze(0)
column = v.unsqueeze(1)
last = v.unsqueeze(-1)
print(row)
print(column)
print(last.shape)
