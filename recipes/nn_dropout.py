"""Dropout in train() and eval()

nn.Dropout(p) behaves differently in the two modes of a module. In training
mode (the default, and after .train()) it zeroes each element with probability
p and multiplies the others by 1 / (1 - p), so that the expected value of every
element stays the same. In evaluation mode (after .eval()) it passes its input
through unchanged. Forgetting model.eval() before testing is a classic bug: the
predictions come out random.

The seed fixes which elements are dropped. Change p and count the zeros; change
the seed and the pattern moves.

train() 和 eval() 模式下的 Dropout

nn.Dropout(p) 在模块的两种模式下表现不同。在训练模式下（默认如此，调用
.train() 之后也是），它以概率 p 把每个元素置零，并把其余元素乘以
1 / (1 - p)，使每个元素的期望值保持不变。在评估模式下（调用 .eval() 之后），
它原样输出输入。测试前忘记调用 model.eval() 是一个经典错误：预测结果会变得
随机。

随机种子决定了哪些元素被丢弃。改变 p，数一数零的个数；改变种子，丢弃的位置
也会改变。
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 8)
# A new module is in training mode.
print(drop.training)
# About half the elements become 0, the others 1 / (1 - 0.5) = 2.
train_out = drop(x)
print(train_out)
# The mean stays near 1.
print(train_out.mean())
drop.eval()
print(drop.training)
# In eval mode the input passes through unchanged.
eval_out = drop(x)
print(eval_out)
print(torch.equal(eval_out, x))
drop.train()
# Back in training mode, with new random choices.
again = drop(x)
print(again)
