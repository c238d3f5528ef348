# From notes 004, block 31: torch pth 文件转pt
import torch
torch.manual_seed(0)

# --- pasted from earlier block 14 of the same notes: device ---
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
# --- block 31 (the example itself) ---
import torch
example = (torch.tensor(torch.ones(1, 128), dtype=torch.long).to(device), torch.tensor(torch.ones(1, 128), dtype=torch.long).to(device),torch.tensor(torch.ones(1, 128), dtype=torch.long).to(device))
traced_script_module = torch.jit.trace(model, example)
traced_script_module.save('rbt3_model.pt')
