"""Leaf and non-leaf tensors, and grad_fn

A tensor you create yourself is a leaf. With requires_grad=True, autograd records
every operation done with it: each result is a non-leaf tensor that remembers how it
was made in its grad_fn, such as MulBackward0 for a product and SumBackward0 for a
sum. Printing such a tensor shows its grad_fn; the Autograd graph tab draws the chain
back to the leaves.

backward() walks that chain from the result back to the leaves and stores the
gradient in the .grad of each leaf that requires grad: here d(total)/dx = 2 for each
element. A tensor created without requires_grad is a leaf too, but nothing is
recorded for it and it gets no gradient.

叶子张量、非叶子张量与 grad_fn

你自己创建的张量是叶子（leaf）。设置 requires_grad=True 后，autograd 会记录用它
做的每一个运算：每个结果都是非叶子张量，并在 grad_fn 中记住自己是怎样得到的，
例如乘积是 MulBackward0，求和是 SumBackward0。打印这样的张量会显示它的 grad_fn；
“Autograd 图”标签页会画出一直通到叶子的整条链。

backward() 从结果出发沿这条链走回叶子，把梯度存进每个需要梯度的叶子的 .grad：
这里对每个元素 d(total)/dx = 2。没有设置 requires_grad 的张量也是叶子，但不会为它
记录任何运算，它也得不到梯度。

Category: autograd
"""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
doubled = x * 2
total = doubled.sum()
print(x.is_leaf, doubled.is_leaf, total.is_leaf)
print(x.grad_fn)
print(doubled)
print(total)
plain = torch.tensor([1.0, 2.0])
print(plain.is_leaf, plain.requires_grad)
total.backward()
print(x.grad)
