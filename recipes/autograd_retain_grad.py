"""retain_grad: keeping the gradient of an intermediate result

backward() fills .grad only for leaves, the tensors you created with
requires_grad=True. Intermediate results pass their gradient on to the tensors they
were made from and then forget it, which saves memory; reading .grad of a non-leaf
gives None and a warning.

Call y.retain_grad() before backward() to keep it. Here y = x * x and total = sum(y),
so d(total)/dy is 1 for every element and d(total)/dx = 2x: the chain rule multiplies
the gradient of the later step by the local derivative of the earlier one.

retain_grad：保留中间结果的梯度

backward() 只为叶子（你用 requires_grad=True 创建的张量）填写 .grad。中间结果把
自己的梯度传给生成它的张量之后就把它丢掉，以节省内存；读取非叶子张量的 .grad
会得到 None 和一条警告。

在 backward() 之前调用 y.retain_grad() 就能保留它。这里 y = x * x，
total = sum(y)，所以对每个元素 d(total)/dy 都是 1，而 d(total)/dx = 2x：链式
法则把后一步的梯度乘以前一步的局部导数。

Category: autograd
"""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x

# Ask autograd to keep y's gradient as well.
y.retain_grad()
total = y.sum()
total.backward()
print(x.grad)
print(y.grad)
