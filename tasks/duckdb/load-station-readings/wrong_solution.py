# Wrong on purpose: relies on type auto-detection, which reads the station codes as numbers (dropping the leading zeros) and humidity as BIGINT
# %% based-on: solution.py
# %% replace 3: load every monthly file, letting duckdb guess the column types
pyautogui.typewrite(
    "CREATE TABLE readings AS SELECT * FROM read_csv('readings/*.csv', header = true);\n",
    interval=0.01,
)
time.sleep(1)
