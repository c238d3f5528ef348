"""torch.tensor versus torch.Tensor

torch.tensor (small t) is a function: it copies the data you give it and infers the
dtype, int64 for whole numbers. torch.Tensor (capital T) is the class of every
tensor, and calling it is the old constructor: it always makes float32 (the default
dtype), whatever the data.

The two differ most when given plain numbers. torch.tensor(3) is a 0-D tensor holding
3. torch.Tensor(3) reads 3 as a size: a tensor of three elements, whose memory is not
initialised, so its values are whatever was there before. They change from run to
run, which is why this recipe prints only its shape (look at them in the viewer).

Use torch.tensor for data, with dtype= when you want another type, and torch.empty
or torch.zeros for a shape.

torch.tensor 与 torch.Tensor

torch.tensor（小写 t）是一个函数：它复制你给的数据并推断 dtype，整数得到 int64。
torch.Tensor（大写 T）是所有张量的类，调用它是旧式的构造方法：不管数据是什么，
它总是生成 float32（默认 dtype）。

两者在传入单个数字时差别最大。torch.tensor(3) 是一个保存 3 的 0 维张量；
torch.Tensor(3) 却把 3 当作尺寸：得到一个有三个元素的张量，它的内存没有初始化，
里面的值是内存中原来的内容。这些值每次运行都不一样，所以本配方只打印它的形状
（可以在查看器里看看这些值）。

表示数据时请用 torch.tensor，需要其他类型时加上 dtype=；只需要形状时请用
torch.empty 或 torch.zeros。

Category: creation
"""
import torch

small = torch.tensor([1, 2, 3])
capital = torch.Tensor([1, 2, 3])
print(small, small.dtype)
print(capital, capital.dtype)

# One number: a value for torch.tensor, a size for torch.Tensor.
scalar = torch.tensor(3)
three = torch.Tensor(3)
print(scalar, scalar.shape)
print(three.shape)

# The way to get float64 data.
doubles = torch.tensor([1, 2, 3], dtype=torch.float64)
print(doubles)
