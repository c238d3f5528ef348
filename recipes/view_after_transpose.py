"""view after transpose: an error lesson

Error lesson: this recipe stops with an error on purpose.

This recipe fails on purpose: its last step raises torch's RuntimeError, so
`python view_after_transpose.py` prints the traceback and exits with status 1
(and `tensor-lab run` exits 1 with torch's message). The error is the lesson.

view never copies: it reads the same memory with a new shape, so the elements must
already lie in memory in row-major order. x.t() only swaps the strides, (3, 1)
becomes (1, 3), and its rows are no longer consecutive in memory: is_contiguous()
says False. Select the step v and open the "Op explained" tab: the numbered cells
show the row-major order next to where each element really sits (@). reshape copies
when it must; contiguous() makes the copy explicitly.

转置之后的 view：一节错误课

错误课：本课的配方故意以一个错误结束。

这个配方是故意失败的：最后一步会引发 torch 的 RuntimeError，所以
`python view_after_transpose.py` 会打印回溯信息并以状态 1 退出（`tensor-lab run`
也以 1 退出，并给出 torch 的报错信息）。这个错误就是本课的内容。

view 从不复制：它用新的形状读取同一块内存，所以元素在内存中必须已经按行优先顺序
排列。x.t() 只交换了步长，(3, 1) 变成 (1, 3)，它的各行在内存中不再连续：
is_contiguous() 返回 False。选中步骤 v，打开“运算图解”标签页：带编号的格子
显示行优先顺序，旁边标出每个元素实际所在的位置（@）。reshape 在必要时会复制；
contiguous() 则明确地做一次复制。

Category: shapes
"""
import torch

x = torch.arange(6).view(2, 3)

# The transpose: the same memory, strides (1, 3).
t = x.t()
print(x.is_contiguous())
print(t.is_contiguous())

# The fixes: reshape copies when it has to, contiguous() copies first.
r = t.reshape(6)
c = t.contiguous().view(6)
print(r)

# The lesson: this line raises "view size is not compatible with input tensor's size and stride".
v = t.view(6)
