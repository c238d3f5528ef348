"""new_ones and the *_like functions keep the dtype

Factory functions such as torch.ones(2, 3) use torch's defaults: float32 on the CPU.
When you build a tensor to combine with an existing one x, you usually want x's dtype
and device instead, or a float64 computation quietly meets a float32 tensor.

x.new_ones(2, 3) and x.new_zeros(3) take only the dtype and the device from x; the
shape is the one you give. torch.ones_like(x), torch.zeros_like(x),
torch.full_like(x, 7) and torch.rand_like(x) copy x's shape as well. Any of them can
be told another dtype with dtype=.

Try it: change the dtype of x to torch.int32 and watch every result follow it, except
plain, which stays float32.

new_ones 和 *_like 函数保留 dtype

像 torch.ones(2, 3) 这样的工厂函数使用 torch 的默认设置：CPU 上的 float32。
当你要构造一个张量去和已有的张量 x 一起计算时，通常需要的是 x 的 dtype 和设备，
否则 float64 的计算会悄悄混进一个 float32 张量。

x.new_ones(2, 3) 和 x.new_zeros(3) 只从 x 取 dtype 和设备，形状由你给出。
torch.ones_like(x)、torch.zeros_like(x)、torch.full_like(x, 7) 和
torch.rand_like(x) 还会复制 x 的形状。它们都可以用 dtype= 指定别的类型。

动手试试：把 x 的 dtype 改成 torch.int32，看看每个结果都跟着变化，只有 plain
仍然是 float32。

Category: creation
"""
import torch

torch.manual_seed(0)
x = torch.tensor([[1.5, 2.0], [3.0, 4.5]], dtype=torch.float64)

# torch's defaults: float32, whatever x is.
plain = torch.ones(2, 3)

# x's dtype, your shape.
new_ones = x.new_ones(2, 3)
new_zeros = x.new_zeros(3)

# x's dtype and x's shape.
ones_like = torch.ones_like(x)
sevens = torch.full_like(x, 7)
noise = torch.rand_like(x)

# x's shape, another dtype.
as_int = torch.zeros_like(x, dtype=torch.int64)
print(plain.dtype)
print(new_ones)
print(new_zeros)
print(ones_like)
print(sevens)
print(noise)
print(as_int)
