"""cat versus stack, and the dim that is out of range

torch.cat joins tensors along a dimension they already have: two (2, 3) tensors give
(4, 3) along dim 0 and (2, 6) along dim 1. Only the size along dim may differ.

torch.stack puts same-shaped tensors side by side along a new dimension: two (2, 3)
tensors give (2, 2, 3) with dim=0 and (2, 3, 2) with dim=2. stack accepts one more
position than cat, because the new dimension can go last.

Error lesson: this recipe stops with an error on purpose.

A (2, 3) tensor has dimensions 0 and 1, or -2 and -1 counted from the end. The last
step asks cat for dim=2, and torch answers "Dimension out of range (expected to be in
range of [-2, 1], but got 2)". Select the failed step to read the explanation, then
make it dim=1 or use stack.

cat 与 stack，以及超出范围的 dim

torch.cat 沿着张量已有的维度把它们连接起来：两个 (2, 3) 张量沿 dim 0 得到
(4, 3)，沿 dim 1 得到 (2, 6)。只有 dim 方向上的大小可以不同。

torch.stack 把形状相同的张量沿一个新维度并排放在一起：两个 (2, 3) 张量在 dim=0
时得到 (2, 2, 3)，在 dim=2 时得到 (2, 3, 2)。stack 比 cat 多接受一个位置，因为
新维度可以放在最后。

错误课：本课的配方故意以一个错误结束。

(2, 3) 张量的维度是 0 和 1，从后往前数则是 -2 和 -1。最后一步让 cat 使用 dim=2，
torch 的回答是 "Dimension out of range (expected to be in range of [-2, 1], but got
2)"。选中出错的那一步，阅读解释，然后把它改成 dim=1，或者改用 stack。

Category: shapes
"""
import torch

a = torch.zeros(2, 3)
b = torch.ones(2, 3)
rows = torch.cat((a, b), dim=0)
columns = torch.cat((a, b), dim=1)
stacked = torch.stack((a, b), dim=0)
stacked_last = torch.stack((a, b), dim=2)
print(rows.shape)
print(columns.shape)
print(stacked.shape)
print(stacked_last.shape)
print(columns)

# The lesson: cat has no dimension 2 to join along.
wrong = torch.cat((a, b), dim=2)
