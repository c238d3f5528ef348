"""backward on a non-scalar tensor: the gradient argument

backward() with no argument only works on a tensor with one element, a loss: the
gradient starts as 1. For a tensor y with several elements there is no single number
to differentiate, and torch says "grad can be implicitly created only for scalar
outputs".

y.backward(gradient=v) says how much each element of y counts: it computes the
gradient of sum(v * y), the vector-Jacobian product. Here y = x * x, so each x gets
2 * x * v: [2, 0.4, 0.06] for x = [1, 2, 3] and v = [1, 0.1, 0.01]. With v all ones it
is the same as y.sum().backward(). v must have y's shape.

Try it: remove the gradient argument and read the error.

对非标量张量调用 backward：gradient 参数

不带参数的 backward() 只适用于只有一个元素的张量（即损失）：梯度从 1 开始。对于
有多个元素的张量 y，没有一个单独的数可以求导，torch 会报错 "grad can be
implicitly created only for scalar outputs"。

y.backward(gradient=v) 说明 y 的每个元素占多大分量：它计算 sum(v * y) 的梯度，
也就是向量-雅可比积。这里 y = x * x，所以每个 x 得到 2 * x * v：当 x = [1, 2, 3]、
v = [1, 0.1, 0.01] 时结果是 [2, 0.4, 0.06]。v 全为 1 时，它与
y.sum().backward() 相同。v 的形状必须和 y 一样。

动手试试：去掉 gradient 参数，读一读报错信息。

Category: autograd
"""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
v = torch.tensor([1.0, 0.1, 0.01])
y.backward(gradient=v)
print(x.grad)
