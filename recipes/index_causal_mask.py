"""The causal attention mask: tril, masked_fill(-inf) and softmax

In a decoder, the token at position i may attend only to positions 0 to i, never to the
future. Attention turns a (T, T) matrix of scores into weights with a softmax over
each row, so the future must get weight exactly 0.

torch.tril(torch.ones(T, T)) is 1 on and below the diagonal: row i allows columns 0 to
i. masked_fill writes -inf where the mask is 0, and softmax turns -inf into
exp(-inf) = 0, while the allowed scores share the whole weight: every row still adds
up to 1. Row 0 can only look at itself, so its weight there is 1.

A large negative number such as -1e9 works too; -inf is exact. A row with every entry
-inf would give NaN, which a causal mask never makes, since the diagonal is always
allowed.

因果注意力掩码：tril、masked_fill(-inf) 和 softmax

在解码器中，位置 i 的词元只能关注位置 0 到 i，不能看到未来。注意力对 (T, T) 的
分数矩阵的每一行做 softmax，把分数变成权重，所以未来位置的权重必须恰好为 0。

torch.tril(torch.ones(T, T)) 在对角线及其下方为 1：第 i 行允许第 0 到第 i 列。
masked_fill 在掩码为 0 的地方写入 -inf，softmax 把 -inf 变成 exp(-inf) = 0，
允许的分数则分享全部权重：每一行的和仍然是 1。第 0 行只能看自己，所以它在那里的
权重是 1。

用 -1e9 这样很大的负数也可以；-inf 是精确的。如果一行全是 -inf，结果会是 NaN，
但因果掩码不会出现这种情况，因为对角线总是允许的。

Category: indexing
"""
import torch

torch.manual_seed(0)
scores = torch.randn(4, 4)

# 1 where position i may look at position j (j <= i).
allowed = torch.tril(torch.ones(4, 4))
future = allowed == 0
masked = scores.masked_fill(future, float("-inf"))
weights = torch.softmax(masked, dim=-1)
print(allowed)
print(masked)
print(weights)
print(weights.sum(dim=-1))
