"""clip_grad_value_ written out: clamp every gradient in place

The notes print the source of torch.nn.utils.clip_grad_value_ from an older
PyTorch. It accepts one tensor as well as an iterable of them, skips the parameters
whose .grad is None, and clamps each remaining gradient into [-clip_value,
clip_value] in place. The function at the top is that listing; today's PyTorch does
the same with fused foreach kernels.

Two identical Linear(4, 2) models (seed 1) see the same batch and run the same
backward. With clip_value=0.2 the notes' function changes only the elements outside
[-0.2, 0.2]: -0.2972 and 0.5645 in the weight's gradient become -0.2000 and 0.2000,
and the bias gradient [0.3277, -0.5947] becomes [0.2000, -0.2000]; 0.1787, -0.0428
and the rest stay as they were. PyTorch's own clip_grad_value_ on the second model
gives exactly the same gradients: torch.equal prints True twice.

Given a single tensor, the isinstance branch wraps it in a list: the gradient
[-2.0, 0.3, 5.0] clipped at 1 becomes [-1.0, 0.3, 1.0]. Call it after
loss.backward() and before optimizer.step(); training_clip_value shows what it does
to a run that explodes.

把 clip_grad_value_ 写出来：原地截断每一个梯度

笔记给出了旧版 PyTorch 中 torch.nn.utils.clip_grad_value_ 的源码。它既接受一个张量，
也接受由张量组成的可迭代对象；跳过 .grad 为 None 的参数；把其余每个梯度原地限制在
[-clip_value, clip_value] 之内。开头的函数就是这段源码；现在的 PyTorch 用融合的
foreach 内核做同样的事。

两个完全相同的 Linear(4, 2) 模型（种子 1）输入同一批数据，做同样的反向传播。
clip_value=0.2 时，笔记中的函数只改变 [-0.2, 0.2] 之外的元素：权重梯度中的 -0.2972
和 0.5645 变成 -0.2000 和 0.2000，偏置梯度 [0.3277, -0.5947] 变成
[0.2000, -0.2000]；0.1787、-0.0428 等其余元素保持不变。对第二个模型调用 PyTorch
自带的 clip_grad_value_，得到的梯度完全相同：torch.equal 两次都打印 True。

如果传入单个张量，isinstance 分支会把它放进一个列表：梯度 [-2.0, 0.3, 5.0] 按 1 截断
后变成 [-1.0, 0.3, 1.0]。应该在 loss.backward() 之后、optimizer.step() 之前调用它；
training_clip_value 展示了它对一次发散的训练有什么作用。

Category: training
"""
import torch
import torch.nn as nn


def clip_grad_value_(parameters, clip_value):
    r"""Clips gradient of an iterable of parameters at specified value.
    Gradients are modified in-place.

    Arguments:
        parameters (Iterable[Tensor] or Tensor): an iterable of Tensors or a
            single Tensor that will have gradients normalized
        clip_value (float or int): maximum allowed value of the gradients.
            The gradients are clipped in the range [-clip_value, clip_value]
    """

    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in filter(lambda p: p.grad is not None, parameters):
        p.grad.data.clamp_(min=-clip_value, max=clip_value)


torch.manual_seed(0)
x = torch.randn(8, 4)
y = torch.randn(8, 2)

torch.manual_seed(1)
model_a = nn.Linear(4, 2)
torch.manual_seed(1)
model_b = nn.Linear(4, 2)
loss_fn = nn.MSELoss()
loss_fn(model_a(x), y).backward()
loss_fn(model_b(x), y).backward()
print(model_a.weight.grad)
print(model_a.bias.grad)

# The notes' listing on model_a, PyTorch's own on model_b.
clip_grad_value_(model_a.parameters(), clip_value=0.2)
torch.nn.utils.clip_grad_value_(model_b.parameters(), clip_value=0.2)
print(model_a.weight.grad)
print(model_a.bias.grad)
print(torch.equal(model_a.weight.grad, model_b.weight.grad))
print(torch.equal(model_a.bias.grad, model_b.bias.grad))

t = torch.zeros(3, requires_grad=True)
t.grad = torch.tensor([-2.0, 0.3, 5.0])
clip_grad_value_(t, 1)
print(t.grad)
