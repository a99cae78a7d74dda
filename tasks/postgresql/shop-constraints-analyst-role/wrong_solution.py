# Wrong on purpose: grants ALL PRIVILEGES on the tables to analyst (it can change them, not only read)
# %% based-on: solution.py
# %% replace 4: the read-only analyst role
pyautogui.typewrite("CREATE ROLE analyst LOGIN PASSWORD 'analyst2024';\n", interval=0.01)
time.sleep(0.3)
pyautogui.typewrite("GRANT ALL PRIVILEGES ON customers, orders TO analyst;\n", interval=0.01)
time.sleep(0.5)
