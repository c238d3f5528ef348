"""detach and no_grad: stepping outside autograd

y.detach() returns the same numbers cut off from the graph: no grad_fn, requires_grad
False, and no gradient flows back through it. It shares memory with y, so it costs
nothing; use it for values you only want to look at, log or plot, or as a fixed
target.

Inside with torch.no_grad(): nothing is recorded at all, even for tensors that
require grad. Results come out without grad_fn, and no memory is kept for a backward
pass. That is how a model is evaluated, and how weights are updated by hand.

Try it: call backward on frozen.sum(). torch refuses, because frozen does not require
grad and has no grad_fn.

detach 与 no_grad：走出 autograd

y.detach() 返回同样的数，但与计算图断开：没有 grad_fn，requires_grad 为 False，
梯度也不会经过它往回传。它和 y 共享内存，所以几乎没有开销；用它来表示只想查看、
记录或绘制的值，或者作为固定的目标。

在 with torch.no_grad(): 里面什么都不会被记录，即使是需要梯度的张量也一样。结果
没有 grad_fn，也不会为反向传播保存内存。评估模型和手动更新权重时就是这样做的。

动手试试：对 frozen.sum() 调用 backward。torch 会拒绝，因为 frozen 不需要梯度，
也没有 grad_fn。

Category: autograd
"""
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
frozen = y.detach()
print(y)
print(frozen)
print(y.requires_grad, frozen.requires_grad)
with torch.no_grad():
    unrecorded = x * 3
print(unrecorded)
print(unrecorded.requires_grad)
