# Wrong on purpose: forgets to remove the duplicated rows
# %% based-on: solution.py
# %% replace 3: type the cleaning code into the new cell
pyautogui.typewrite(
    "df = df.dropna(subset=['temperature_c'])\n"
    "df['station'] = df['station'].str.strip().str.lower()\n"
    "df = df.sort_values('reading_id')\n"
    "df.to_csv('readings_clean.csv', index=False)",
    interval=0.01,
)
