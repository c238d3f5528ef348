"""multinomial: drawing positions by weight, with and without replacement

torch.multinomial(weights, n) draws n positions at random, each with probability
proportional to its weight; the weights need not add up to 1, but none may be
negative. The result holds positions, not values.

Without replacement (the default) a position drawn once cannot come again, so the n
positions are all different, and n may not exceed the number of positions with a
non-zero weight. With replacement=True every draw starts afresh, and the same
position can come many times: that is how a language model samples its next token,
one draw per step.

Over 1000 draws with replacement, the counts come close to 1000 times the weights:
about 100, 0, 600 and 300. Position 1 has weight 0 and is never drawn.

multinomial：按权重抽取位置，放回与不放回

torch.multinomial(weights, n) 随机抽取 n 个位置，每个位置被抽中的概率与它的权重
成正比；权重之和不必为 1，但不能有负数。结果保存的是位置，而不是值。

不放回抽样（默认）时，抽中过的位置不会再出现，所以 n 个位置各不相同，而且 n 不能
超过权重不为零的位置个数。使用 replacement=True 时每次抽样都重新开始，同一个位置
可以出现很多次：语言模型就是这样采样下一个词元的，每一步抽一次。

有放回地抽 1000 次，各位置出现的次数接近 1000 乘以权重：大约 100、0、600 和
300。位置 1 的权重为 0，从不会被抽到。

Category: math
"""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
weights = torch.tensor([0.1, 0.0, 0.6, 0.3])
with_replacement = torch.multinomial(weights, 10, replacement=True)
without = torch.multinomial(weights, 3)
print(with_replacement)
print(without)
many = torch.multinomial(weights, 1000, replacement=True)
counts = F.one_hot(many, num_classes=4).sum(dim=0)
print(counts)
