# From notes 004, block 6: nn.embedding
import torch
torch.manual_seed(0)

import torch
from torch.nn import Embedding

# 假设我们有一个词汇表大小为10，每个词的嵌入维度为5
embedding_layer = Embedding(64, 1024)

# 输入是一个包含两个序列的批次，每个序列有两个索引
input_indices = torch.tensor([[1, 2, 3 ], [4, 5,6 ]])
print(input_indices.shape) 
# >> 2,3
# 通过嵌入层
word_embeddings = embedding_layer(input_indices)

print(word_embeddings.shape) 
# >> 2,3,1024
