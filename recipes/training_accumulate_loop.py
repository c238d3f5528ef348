"""Gradient accumulation in the loop: step on every n-th batch

The notes' pattern: loss.backward() on every batch, but the optimizer steps only when
(it + 1) % iters_to_accumulate == 0. backward adds to .grad, so the gradients of
iters_to_accumulate batches add up before each step: here batches of 2 act as one
batch of 4. Dividing each loss by iters_to_accumulate makes that sum the gradient of
the mean loss over all 4 samples.

The first line is the gradient of one batch of samples 0-3: [0.8574, -1.7312,
-1.1939]. After batch 0 (samples 0 and 1) .grad holds [0.6311, -0.9431, -0.8288];
after batch 1 (samples 2 and 3) it holds the same numbers as the batch of 4, and the
optimizer steps. zero_grad() then clears .grad, so batch 2 starts from nothing.

The order inside the if matters: optimizer.step() first, then zero_grad(). The notes
write zero_grad() before step(), which throws the accumulated gradient away (PyTorch
sets .grad to None) and leaves the step nothing to apply. The last lines try that
order: the weight does not move, and torch.equal prints True. (The notes also call
lr_scheduler.step() inside the if: once per optimizer step.)

在循环中累积梯度：每 n 个批次更新一次

笔记中的写法：每个批次都调用 loss.backward()，但只有当
(it + 1) % iters_to_accumulate == 0 时优化器才更新参数。backward 会往 .grad 里累加，
所以每次更新之前，iters_to_accumulate 个批次的梯度已经加在一起：这里 2 个样本的
批次起到了 4 个样本一批的作用。把每个损失除以 iters_to_accumulate，梯度之和就等于
全部 4 个样本平均损失的梯度。

第一行是样本 0-3 作为一个批次时的梯度：[0.8574, -1.7312, -1.1939]。第 0 个批次
（样本 0 和 1）之后，.grad 是 [0.6311, -0.9431, -0.8288]；第 1 个批次（样本 2 和 3）
之后，它与 4 个样本一批的梯度相同，优化器更新一次。接着 zero_grad() 清除 .grad，
第 2 个批次从零开始累积。

if 里面的顺序很重要：先 optimizer.step()，再 zero_grad()。笔记把 zero_grad() 写在
step() 之前，这样会丢掉累积的梯度（PyTorch 把 .grad 设为 None），step 就没有可用的
梯度。最后几行试了这种顺序：权重没有变化，torch.equal 打印 True。（笔记还在 if 里调用
lr_scheduler.step()：每次优化器更新调用一次。）

Category: training
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(8, 3)
y = torch.randn(8, 1)
model = nn.Linear(3, 1)
criterion = nn.MSELoss()
optim = torch.optim.SGD(model.parameters(), lr=0.1)

# The gradient of one batch of 4 samples, for comparison.
criterion(model(x[:4]), y[:4]).backward()
print(model.weight.grad)
model.zero_grad()

# the gradient accumulation adds gradients over an effective batch of size:
# bs * iters_to_accumulate. If set to "1", you get the usual batch size
iters_to_accumulate = 2
for it in range(4):
    xb, yb = x[2 * it:2 * it + 2], y[2 * it:2 * it + 2]  # batches of 2
    loss = criterion(model(xb), yb) / iters_to_accumulate
    loss.backward()
    print(it, model.weight.grad)
    if (it + 1) % iters_to_accumulate == 0:
        optim.step()
        optim.zero_grad()
        print(it, "step", model.weight.data)

# The notes' order: zero_grad() first, then step(). The step finds no gradient.
before = model.weight.data.clone()
criterion(model(x[:2]), y[:2]).backward()
optim.zero_grad()
optim.step()
print(torch.equal(model.weight.data, before))
