"""Embedding: ids in, vectors out

nn.Embedding(num_embeddings, embedding_dim) is a table with one row per id.
Calling it on a tensor of integer ids looks each id up, so the result has the
ids' shape with embedding_dim added at the end: ids of shape (3,) give (3, 4),
a batch of shape (2, 3) gives (2, 3, 4). The same id always gives the same row
of weight. Ids must be integers from 0 to num_embeddings - 1.

With padding_idx, that id's row starts at zero and gets no gradient: the usual
choice for padding tokens. Try an id of 10 to see the error an id outside the
table gives.

Embedding：输入 id，输出向量

nn.Embedding(num_embeddings, embedding_dim) 是一张表，每个 id 对应一行。
用整数 id 组成的张量调用它时，会逐个查表，所以结果的形状是 id 的形状再在
末尾加上 embedding_dim：形状为 (3,) 的 id 得到 (3, 4)，形状为 (2, 3) 的一批
id 得到 (2, 3, 4)。同一个 id 总是得到 weight 的同一行。id 必须是 0 到
num_embeddings - 1 之间的整数。

设置 padding_idx 后，这个 id 对应的行初始为零，并且不接收梯度：通常用于
填充符号。试着把某个 id 改成 10，看看超出表范围的 id 会给出什么错误。
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(10, 4)
# The table: one row of 4 numbers per id.
print(emb.weight.shape)
ids = torch.tensor([1, 5, 1])
vectors = emb(ids)
print(vectors.shape)
batch = torch.tensor([[1, 2, 3], [4, 5, 6]])
# A batch of sequences: (2, 3) ids give (2, 3, 4) vectors.
batch_vectors = emb(batch)
print(batch_vectors.shape)
# The same id gives the same row of weight.
print(torch.equal(vectors[0], vectors[2]))
print(torch.equal(vectors[1], emb.weight[5]))
padded = nn.Embedding(10, 4, padding_idx=0)
# Id 0 is the padding id: its vector is all zeros.
print(padded(torch.tensor([0, 3]))[0])
