"""Elementwise mul, mm and matmul, bmm: three kinds of product

a * b (torch.mul) multiplies element by element: both tensors have the same shape, or
shapes that broadcast, and so does the result.

torch.mm(a, b) is the matrix product of two 2-D tensors: (n, m) times (m, p) gives
(n, p), each entry a row of a times a column of b. a @ b (torch.matmul) is the same
for matrices, but also takes vectors and batches: extra leading dimensions are batch
dimensions and broadcast.

torch.bmm(a, b) multiplies batches of matrices: (b, n, m) times (b, m, p) gives
(b, n, p). It insists on exactly 3-D inputs with the same batch size, no broadcasting.

Error lesson: this recipe stops with an error on purpose.

The last step calls bmm on two 2-D matrices, and torch refuses: "batch1 must be a 3D
tensor". Add a batch dimension with unsqueeze(0), or use matmul.

逐元素乘法 mul、矩阵乘法 mm 与 matmul、批量矩阵乘法 bmm

a * b（torch.mul）逐个元素相乘：两个张量形状相同，或者形状可以广播，结果也是
这个形状。

torch.mm(a, b) 是两个二维张量的矩阵乘积：(n, m) 乘以 (m, p) 得到 (n, p)，每个
元素是 a 的一行乘以 b 的一列。a @ b（torch.matmul）对矩阵来说与 mm 相同，但它还
接受向量和批量：多出来的前导维度是批维度，并且会广播。

torch.bmm(a, b) 对成批的矩阵做乘法：(b, n, m) 乘以 (b, m, p) 得到 (b, n, p)。
它要求输入恰好是三维的，批大小相同，不做广播。

错误课：本课的配方故意以一个错误结束。

最后一步对两个二维矩阵调用 bmm，torch 拒绝执行："batch1 must be a 3D tensor"。
用 unsqueeze(0) 加上一个批维度，或者改用 matmul。

Category: math
"""
import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[10.0, 20.0], [30.0, 40.0]])
elementwise = a * b
product = torch.mm(a, b)
same = a @ b
print(elementwise)
print(product)
print(torch.equal(product, same))

# Three 2 x 2 matrices, each multiplied by its partner.
batch_a = torch.arange(12.0).view(3, 2, 2)
batch_b = torch.ones(3, 2, 2)
batched = torch.bmm(batch_a, batch_b)

# matmul broadcasts b against all three matrices of the batch.
broadcast = torch.matmul(batch_a, b)
print(batched.shape)
print(batched[0])
print(broadcast.shape)

# The lesson: bmm wants 3-D tensors; a and b are 2-D.
wrong = torch.bmm(a, b)
