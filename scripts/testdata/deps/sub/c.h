#pragma once
int c_h;
