# From notes 002, block 6: CUDA上的张量
import torch
torch.manual_seed(0)

# --- pasted from earlier block 5 of the same notes: x ---
x = torch.randn(1)
# --- block 6 (the example itself) ---
# 当GPU可用时,我们可以运行以下代码
# 我们将使用`torch.device`来将tensor移入和移出GPU
if torch.cuda.is_available():
    device = torch.device("cuda")          # a CUDA device object
    y = torch.ones_like(x, device=device)  # 直接在GPU上创建tensor
    x = x.to(device)                       # 或者使用`.to("cuda")`方法
    z = x + y
    print(z)
    print(z.to("cpu", torch.double))       # `.to`也能在移动时改变dtypeCopy
