# The verbose variant of task 51719eea-10bc-4246-a428-ac7c433dd4b3: the same workbook, the same checks,
# so the same solution.
# %% based-on: 51719eea-10bc-4246-a428-ac7c433dd4b3.py
