# From notes 004, block 20: warmup
import torch
torch.manual_seed(0)

lr_scheduler = get_linear_schedule_with_warmup(optimizer=opti, num_warmup_steps=num_warmup_steps, num_training_steps=t_total)
