"""Gradients add up: zero them between steps

backward() does not replace .grad, it adds to it. Two backward passes through the
same loss leave twice the gradient in .grad. That is on purpose, so that the
gradients of several mini-batches can be summed before one optimizer step (gradient
accumulation). In a plain training loop it is a bug unless the gradients are cleared
before each step: optimizer.zero_grad() or model.zero_grad().

Here d(sum(w * w))/dw = 2w = [2, -4]; after a second backward .grad holds [4, -8].
w.grad.zero_() sets it back to zeros. A module's zero_grad() sets every parameter's
.grad to None (set_to_none=True, the default), which saves memory and means "no
gradient yet".

梯度会累加：在两步之间把它清零

backward() 不会替换 .grad，而是往里面累加。对同一个损失做两次反向传播，.grad 中
就是两倍的梯度。这是有意设计的，这样可以在一次优化器更新之前，把几个小批量的梯度
加起来（梯度累积）。在普通的训练循环中，如果每一步之前不清除梯度，这就是一个错误：
应该调用 optimizer.zero_grad() 或 model.zero_grad()。

这里 d(sum(w * w))/dw = 2w = [2, -4]；第二次反向传播之后 .grad 是 [4, -8]。
w.grad.zero_() 把它重新设为 0。模块的 zero_grad() 把每个参数的 .grad 设为 None
（默认 set_to_none=True），这样可以节省内存，表示“还没有梯度”。

Category: autograd
"""
import torch
import torch.nn as nn

w = torch.tensor([1.0, -2.0], requires_grad=True)
first = (w * w).sum()
first.backward()
print(w.grad)

# A second backward adds to .grad.
second = (w * w).sum()
second.backward()
print(w.grad)
w.grad.zero_()
print(w.grad)
torch.manual_seed(0)
lin = nn.Linear(2, 1)
out = lin(torch.ones(1, 2)).sum()
out.backward()
print(lin.weight.grad)
lin.zero_grad()
print(lin.weight.grad)
