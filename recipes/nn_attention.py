"""Attention: each position takes a weighted mean of the others

nn.MultiheadAttention(16, 2) looks at a sequence of 5 tokens, each a vector of 16
numbers. For every position (a query) it scores every position (a key), turns each row
of scores into weights with softmax, so that they are positive and sum to 1, and
returns the weighted mean of the values. With 2 heads it does this twice, on two halves
of 8 numbers each, and each head learns its own way of looking.

The mask makes it causal, as a language model is: True above the diagonal means "may not
look", so position 0 sees only itself, position 1 sees 0 and 1, and so on. The printed
weights have shape (1, 2, 5, 5): one sample, two heads, 5 queries by 5 keys; every row
sums to 1, and everything above the diagonal is 0.

Open the Model tab's Attention page: each head is a 5 x 5 heatmap, queries down, keys
across. Change the mask (or drop attn_mask) and run again to see the triangle go.

注意力：每个位置对所有位置求加权平均

nn.MultiheadAttention(16, 2) 处理一个由 5 个词元组成的序列，每个词元是 16 个数的
向量。对每个位置（查询），它给每个位置（键）打分，再用 softmax 把每一行分数变成
权重，使它们都为正且和为 1，然后返回值向量的加权平均。两个头把这件事各做一次，
各自使用 8 个数，每个头学会自己的“看法”。

掩码让注意力成为因果的，和语言模型一样：对角线以上为 True 表示“不许看”，所以
位置 0 只看到自己，位置 1 看到 0 和 1，依此类推。打印出的权重形状是
(1, 2, 5, 5)：一个样本、两个头、5 个查询乘 5 个键；每一行的和都是 1，对角线以上
全是 0。

打开“模型”页的“注意力”：每个头是一张 5 x 5 的热图，纵轴是查询，横轴是键。修改
掩码（或去掉 attn_mask）再运行，看三角形消失。

Category: nn
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
attention = nn.MultiheadAttention(16, 2, batch_first=True)
tokens = torch.randn(1, 5, 16)
mask = torch.ones(5, 5, dtype=torch.bool).triu(diagonal=1)
out, weights = attention(tokens, tokens, tokens, attn_mask=mask,
                         average_attn_weights=False)
print(out.shape)
print(weights.shape)
print(weights.sum(dim=-1))
print(weights[0, 0])
